"""Eval datasets, runner and graders (graded by execution result, never by string)."""
