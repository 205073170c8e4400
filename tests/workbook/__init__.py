"""The league workbook: its template, reading, recalculating, the live book and LibreOffice."""
