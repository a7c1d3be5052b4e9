"""The one exception type for errors a user can cause."""


class YukonError(Exception):
    """Bad input: the message is one line naming what is wrong and where.

    The command line turns it into that line on stderr and exit status 2.
    """
