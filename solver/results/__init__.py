"""A solve's verdict and what is done with it: the result record, its words, and the replay
of a results file (``yukon verify``)."""
