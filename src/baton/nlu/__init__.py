"""Question -> SemanticQuery: input gate, catalog lexicon, bilingual time expressions, rule planner."""
