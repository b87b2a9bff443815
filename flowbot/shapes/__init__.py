"""Flow Free: Shapes boards as plain geometry: cells as unit polygons, linked where they share a border."""
