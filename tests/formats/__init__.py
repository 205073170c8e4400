"""The files xlgrade reads and writes: CSV, the ECF results file, TRF, card files and
season folders."""
