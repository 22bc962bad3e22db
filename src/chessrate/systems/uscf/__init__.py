"""US Chess ratings (Glickman's system for the US Chess Federation)."""
