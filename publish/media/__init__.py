"""Media files: ffmpeg, captions, the joined video, its description, the manifest, atomic writes."""
