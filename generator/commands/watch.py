"""`cloudqual watch`: the program repositories watched for rounds the site does not hold."""

from __future__ import annotations

import argparse


def run(args: argparse.Namespace) -> int:
    # Imported here: git and the watch stay off the path of every other command.
    from generator.watch import command

    return command.run(args)
