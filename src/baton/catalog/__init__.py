"""The metric catalog: semantic model, YAML loader, and the compiler SemanticQuery -> SQL."""
