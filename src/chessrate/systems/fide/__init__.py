"""The FIDE Rating Regulations (FIDE Handbook B.02) as dated data, and their tables and rules."""
