"""The file formats read: TRF, PGN, CSV and FIDE lists, against plain reference readers (the oracles)."""
