"""The c2sp.org/tlog-witness witness an independent party runs (`build.py witness`)."""
