"""xlgrade's tests, by subject: rules, season, formats, workbook, functions, cli."""
