"""Excel worksheet functions for xlgrade."""
