"""The grading rules of the engine (docs/rules.md), one module at a time."""
