"""rndbits' QEMU front: how each preset is launched (machine.py), the transcript format
(transcript.py) and the serial-console player (session.py). Standard library only."""
