"""Rating systems besides FIDE Elo and Glicko: Chess.com, DWZ, ECF, Lichess sessions, USCF, pools."""
