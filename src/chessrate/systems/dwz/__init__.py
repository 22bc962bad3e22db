"""DWZ, the rating of the German chess federation (DSB Wertungsordnung)."""
