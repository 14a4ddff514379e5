"""`cloudqual watch`: whether MLCommons has published a round the mappings do not hold yet, or
moved one they pin, and what the mappings lack to import it. Reads repositories through git
alone (remote.py), so the tests give it local repositories and CI never needs the network."""
