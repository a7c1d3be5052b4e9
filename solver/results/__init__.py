"""A solve's verdict and what is done with it: the budgets it was given (``limits``), the
result record and its words, and the replay of a results file (``yukon verify``)."""
