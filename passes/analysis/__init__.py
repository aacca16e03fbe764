"""passes/analysis subpackage of pylower."""
