"""One module per agent (sql, quality, stats, trend, insight, report, chart); each sees only its packet."""
