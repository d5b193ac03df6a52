"""File readers: one module per annotation tool's export format."""
