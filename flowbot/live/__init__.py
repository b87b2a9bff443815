"""The live loop's parts that are not one game's: which windows are the game's."""
