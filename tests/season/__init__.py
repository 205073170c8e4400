"""The season recalculation, the next season and the generated leagues it is tried on."""
