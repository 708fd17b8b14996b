from feedloom.cli import app

app(prog_name="feedloom")
