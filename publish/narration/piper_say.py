"""Speak with Piper in a process of its own: ``python -m publish.narration.piper_say MODEL CONF``.

Piper is GPL-3.0; the project only runs it, as a separate program, and talks to it through
pipes and files. CONF: Piper's synthesis settings as JSON. The model loads once; then each line
of standard input, a JSON ``[words, wav path, slower]``, is spoken into its file (``slower``
times CONF's ``length_scale``), and the path is written back on a line of its own when the
file is complete.

onnxruntime runs on one thread: the renders beside it have the other cores, and a fixed thread
count keeps its arithmetic, and so the samples, the same on machines with more cores.
"""

from __future__ import annotations

import json
import sys
import wave
from pathlib import Path


def main(argv: list[str]) -> int:
    import onnxruntime
    from piper import PiperConfig, PiperVoice, SynthesisConfig

    model, settings = argv
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    voice = PiperVoice(
        config=PiperConfig.from_dict(json.loads(Path(f"{model}.json").read_text("utf-8"))),
        session=onnxruntime.InferenceSession(
            model, sess_options=options, providers=["CPUExecutionProvider"]
        ),
    )
    base = json.loads(settings)
    for line in sys.stdin:
        words, path, slower = json.loads(line)
        config = SynthesisConfig(**{**base, "length_scale": base["length_scale"] * slower})
        with wave.open(path, "wb") as audio:
            voice.synthesize_wav(words, audio, syn_config=config)
        print(path, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
