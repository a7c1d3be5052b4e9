"""The dead-end tests: sound tests that prove a position lost, so the search gives it no moves.

``arrays`` lays out the tables they share (named tuples of arrays, the header's slots);
``prune`` is HOPELESS and its case split on twins; ``h2`` the pairwise (h^2) test over a planning
encoding of the position, ``nogoods`` its remembered dead tables; ``h3`` the test over triples
(h^3), ``triple_nogoods`` its remembered dead families; ``path_facts`` keeps the encoding's facts
of the positions on the search's path; ``pacing`` rations the tests that cost; ``entry`` is what
the search calls (the order of the tests on its root, on each new position, on costly positions
of its path). Each module's docstring holds its test's soundness argument and the option that
switches it (``moves``); each test is sound on any position, so where and how often one runs
decides only what a solve costs, never a verdict.
"""
