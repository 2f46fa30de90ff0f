"""`build.py shots`: the contact sheets of a build, photographed in headless Chromium."""
