"""chessrate's tests: a package, as is every folder of it holding a conftest.py, so that pytest
imports each conftest and helper by its own dotted name and any folders run on one command line."""
