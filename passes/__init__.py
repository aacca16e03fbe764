"""passes subpackage of pylower."""
