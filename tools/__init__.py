"""tools subpackage of pylower."""
