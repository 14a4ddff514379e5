"""cloudqual: what each GPU cloud qualification establishes, and what it does not."""
