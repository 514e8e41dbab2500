"""The games the service referees, one package each."""
