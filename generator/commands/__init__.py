"""What each `cloudqual` command does, once its arguments are read (cli.py reads them): a
module for each command or kin of commands."""
