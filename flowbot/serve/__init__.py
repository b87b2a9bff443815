"""`flowbot serve`: a web page where a phone player drops a screenshot and gets hints or the solution."""
