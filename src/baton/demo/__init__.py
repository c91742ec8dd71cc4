"""The synthetic demo warehouse: generator, scenarios with planted effects, ground truth."""
