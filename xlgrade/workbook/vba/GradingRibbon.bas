Attribute VB_Name = "GradingRibbon"
Option Explicit
' The Grading tab's buttons. Each one runs a Python function through the xlwings add-in's
' RunPython; the Python side reads this book's Settings, Players and Results sheets and writes
' the output sheets back as whole blocks.

Public Sub RecalculateSeason(control As IRibbonControl)
    RunGrading "import xlgrade_udfs; xlgrade_udfs.recalculate_season()"
End Sub

Public Sub CheckResults(control As IRibbonControl)
    RunGrading "import xlgrade.workbook.live as live; live.check_results()"
End Sub

Public Sub NewSeason(control As IRibbonControl)
    If MsgBox("Make next season's book? It is saved beside this one with this season's " & _
              "grades as the start grades and no results, then opened; this book is not " & _
              "changed.", vbOKCancel + vbQuestion, "New season") <> vbOK Then Exit Sub
    RunGrading "import xlgrade.workbook.live as live; live.new_season()"
End Sub

Public Sub ShowHowToUse(control As IRibbonControl)
    ThisWorkbook.Worksheets("How to use").Activate
End Sub

Private Sub RunGrading(ByVal code As String)
    On Error GoTo NoXlwings
    Application.Run "'xlwings.xlam'!RunPython", code
    Exit Sub
NoXlwings:
    MsgBox "The xlwings add-in is needed to recalculate in Excel (" & Err.Description & _
           "). Install it with 'xlwings addin install', or run 'xlgrade recalc' on " & _
           "this file.", vbExclamation, "Grading"
End Sub
