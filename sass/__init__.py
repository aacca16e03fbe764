"""sass subpackage of pylower."""
