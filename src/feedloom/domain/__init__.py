"""The pure domain: values and rules of the feed, with no I/O."""
