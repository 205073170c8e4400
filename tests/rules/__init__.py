"""The grading rules of the engine (GRADING-RULES.md), one module at a time."""
