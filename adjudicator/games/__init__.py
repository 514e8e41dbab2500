"""The games. Each is a package implementing adjudicator.kernel.decider.Game."""
