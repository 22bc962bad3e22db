"""The request layer: what a user asks, as typed, turned into library calls and documents.

Below the faces (:mod:`chessrate.cli`, :mod:`chessrate.web`) and above the maths. A face parses
its arguments or its form into an ``*Inputs`` of text, calls one function here, and renders what
comes back: a result with its working, or the :class:`~chessrate.service.problems.Problems` per
field that prevented it. :mod:`~chessrate.service.documents` turns results into the JSON both
faces print.

Its dataclasses are the records of one request, built once and not changed; they are not frozen,
because freezing costs about a millisecond a class at every start of the command line
(``benchmarks/cli_startup.py``).
"""
