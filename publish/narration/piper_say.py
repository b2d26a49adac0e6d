"""Speak with Piper in a process of its own: ``python -m publish.narration.piper_say MODEL CONF``.

Piper is GPL-3.0; the project only runs it, as a separate program, and talks to it through
files. Standard input: a JSON list of ``[words, wav path]``; CONF: Piper's synthesis
settings as JSON. The model loads once for every line.
"""

from __future__ import annotations

import json
import sys
import wave


def main(argv: list[str]) -> int:
    from piper import PiperVoice, SynthesisConfig

    model, settings = argv
    voice = PiperVoice.load(model)
    config = SynthesisConfig(**json.loads(settings))
    for words, path in json.loads(sys.stdin.read()):
        with wave.open(path, "wb") as audio:
            voice.synthesize_wav(words, audio, syn_config=config)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
