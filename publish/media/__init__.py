"""Media files: ffmpeg, captions, the joined video, its upload text, the manifest, atomic writes."""
