"""A held frame written as an H.264 picture that copies the one before, without an encoder.

More than half of a lesson's frames repeat the frame before (a ``wait``, the hold at the end
of a beat), and x264 analyses a repeat nearly as long as a new picture (BENCHMARKS.md). A
repeat can be said in a few bytes instead: a P picture whose every macroblock is skipped
(``P_Skip``, motion zero, no residual) decodes to an exact copy of its reference. x264 writes
CABAC slices, whose skip flags need an arithmetic coder; so the stream gets a second picture
parameter set, the same in all that matters but CAVLC, where the whole slice is one
``mb_skip_run``. Every frame stays in the file: the video keeps its constant frame rate.

:class:`StreamTail` watches x264's packets go by (the numbering the next picture continues)
and :func:`held_packets` writes the repeats after them. Both follow ITU-T H.264 (08/2021):
§7.3.2 (parameter sets), §7.3.3 (slice header), §7.4.3 (frame_num), §8.2.1 (picture order),
§8.2.4 (reference lists). What they cannot follow (a stream of another shape) they refuse,
and the caller encodes the repeats as before.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "HeldPacket",
    "SequenceInfo",
    "StreamTail",
    "held_packets",
    "is_copy",
    "with_skip_pps",
]

START = b"\x00\x00\x00\x01"
SKIP_PPS_ID = 1
"""x264 writes one picture parameter set, id 0; the skip slices' own takes the next."""
HEADER_BYTES = 32
"""Enough of a slice to read its header's first fields (at most about 12 bytes at 4K)."""
_HIGH_PROFILES = frozenset({100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135})
_SPS, _PPS, _IDR, _SLICE = 7, 8, 5, 1


class Unsupported(ValueError):
    """A stream whose shape the skip pictures do not follow (fields, a scaling matrix, …)."""


class _Bits:
    """An H.264 bit writer: fixed-width and Exp-Golomb fields, then the RBSP's trailing bits."""

    def __init__(self) -> None:
        self.value = 0
        self.length = 0

    def u(self, width: int, value: int) -> None:
        self.value = (self.value << width) | value
        self.length += width

    def ue(self, value: int) -> None:
        code = value + 1
        self.u(2 * code.bit_length() - 1, code)

    def rbsp(self) -> bytes:
        self.u(1, 1)
        self.u(-self.length % 8, 0)
        return self.value.to_bytes(self.length // 8, "big")


class _Reader:
    """An H.264 bit reader over an RBSP (emulation prevention already removed)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.position = 0

    def u(self, width: int) -> int:
        value = 0
        for _ in range(width):
            byte = self.data[self.position >> 3]
            value = (value << 1) | ((byte >> (7 - (self.position & 7))) & 1)
            self.position += 1
        return value

    def ue(self) -> int:
        zeros = 0
        while self.u(1) == 0:
            zeros += 1
        return (1 << zeros) - 1 + self.u(zeros)


def _unescape(payload: bytes) -> bytes:
    """An RBSP from a NAL unit's payload: every emulation-prevention byte removed."""
    return payload.replace(b"\x00\x00\x03", b"\x00\x00")


def _escape(rbsp: bytes) -> bytes:
    """A NAL unit's payload from an RBSP: no start code can appear inside it (§7.4.1)."""
    out = bytearray()
    zeros = 0
    for byte in rbsp:
        if zeros >= 2 and byte <= 3:
            out.append(3)
            zeros = 0
        out.append(byte)
        zeros = zeros + 1 if byte == 0 else 0
    return bytes(out)


def nal_units(annex_b: bytes) -> list[bytes]:
    """The NAL units of an Annex B byte stream (x264's packets and extradata)."""
    units = (unit.rstrip(b"\x00") for unit in annex_b.split(b"\x00\x00\x01"))
    return [unit for unit in units if unit]


def is_copy(sample: bytes) -> bool:
    """Whether an MP4 sample (its NAL units each after a 4-byte length) is a held picture's
    copy: a slice of the skip slices' own parameter set."""
    for unit in _prefixed(sample):
        if unit[0] & 0x1F in (_SLICE, _IDR):
            bits = _Reader(_unescape(unit[1:HEADER_BYTES]))
            bits.ue()
            bits.ue()
            return bits.ue() == SKIP_PPS_ID
    return False


def _prefixed(sample: bytes) -> list[bytes]:
    """The NAL units of an MP4 sample (each after its 4-byte length)."""
    units, at = [], 0
    while at + 4 <= len(sample):
        length = int.from_bytes(sample[at : at + 4], "big")
        units.append(sample[at + 4 : at + 4 + length])
        at += 4 + length
    return units


@dataclass(frozen=True)
class SequenceInfo:
    """What the skip slices need of x264's sequence parameter set."""

    sps_id: int
    frame_num_bits: int
    poc_type: int
    poc_lsb_bits: int
    macroblocks: int

    @classmethod
    def parse(cls, nal: bytes) -> SequenceInfo:
        bits = _Reader(_unescape(nal[1:]))
        profile = bits.u(8)
        bits.u(16)  # constraint flags, level
        sps_id = bits.ue()
        if profile in _HIGH_PROFILES:
            if bits.ue() == 3:  # chroma_format_idc 4:4:4
                bits.u(1)
            bits.ue()  # bit depths
            bits.ue()
            bits.u(1)
            if bits.u(1):
                raise Unsupported("a scaling matrix")
        frame_num_bits = bits.ue() + 4
        poc_type = bits.ue()
        poc_lsb_bits = 0
        if poc_type == 0:
            poc_lsb_bits = bits.ue() + 4
        elif poc_type != 2:
            raise Unsupported(f"picture order count type {poc_type}")
        bits.ue()  # max_num_ref_frames
        bits.u(1)
        width = bits.ue() + 1
        height = bits.ue() + 1
        if not bits.u(1):
            raise Unsupported("field pictures")
        return cls(sps_id, frame_num_bits, poc_type, poc_lsb_bits, width * height)


def _sequence(extradata: bytes) -> SequenceInfo:
    for unit in nal_units(extradata):
        if unit[0] & 0x1F == _SPS:
            return SequenceInfo.parse(unit)
    raise Unsupported("no sequence parameter set")


def _skip_pps(sps_id: int) -> bytes:
    """The skip slices' picture parameter set: CAVLC, one reference, no weights (§7.3.2.2)."""
    bits = _Bits()
    bits.ue(SKIP_PPS_ID)
    bits.ue(sps_id)
    bits.u(2, 0)  # entropy_coding_mode_flag (CAVLC), bottom_field_pic_order_in_frame_present
    bits.ue(0)  # num_slice_groups_minus1
    bits.ue(0)  # num_ref_idx_l0_default_active_minus1: one reference
    bits.ue(0)  # … l1
    bits.u(3, 0)  # weighted_pred_flag, weighted_bipred_idc
    bits.ue(0)  # pic_init_qp_minus26 (se 0 is ue 0)
    bits.ue(0)  # pic_init_qs_minus26
    bits.ue(0)  # chroma_qp_index_offset
    bits.u(3, 0b100)  # deblocking control present; no constrained intra; no redundant_pic_cnt
    return bytes([0x68]) + _escape(bits.rbsp())


def with_skip_pps(extradata: bytes) -> bytes:
    """x264's parameter sets (Annex B) with the skip slices' own after them."""
    if any(
        unit[0] & 0x1F == _PPS and _Reader(_unescape(unit[1:])).ue() == SKIP_PPS_ID
        for unit in nal_units(extradata)
    ):
        raise Unsupported(f"a picture parameter set {SKIP_PPS_ID} of its own")
    return extradata + START + _skip_pps(_sequence(extradata).sps_id)


@dataclass
class _Picture:
    frame_num: int
    poc_lsb: int
    reference: bool


class StreamTail:
    """The end of an x264 stream as its packets go by: what a repeat of its last picture
    continues (the last reference's ``frame_num``, the last picture shown, the timestamps)."""

    def __init__(self, extradata: bytes) -> None:
        self.sequence = _sequence(extradata)
        self.last_reference: int | None = None
        self.shown: _Picture | None = None
        self.shown_pts = -1
        self.last_dts = -1

    def see(self, data: bytes, pts: int, dts: int) -> None:
        """Record one packet of x264's (one picture, Annex B)."""
        picture = self._picture(data)
        if picture.reference:
            self.last_reference = picture.frame_num
        if pts > self.shown_pts:
            self.shown, self.shown_pts = picture, pts
        self.last_dts = max(self.last_dts, dts)

    def _picture(self, data: bytes) -> _Picture:
        for unit in nal_units(data):
            kind = unit[0] & 0x1F
            if kind in (_SLICE, _IDR):
                bits = _Reader(_unescape(unit[1:HEADER_BYTES]))
                bits.ue()  # first_mb_in_slice
                bits.ue()  # slice_type
                bits.ue()  # pic_parameter_set_id
                frame_num = bits.u(self.sequence.frame_num_bits)
                if kind == _IDR:
                    bits.ue()  # idr_pic_id
                poc_lsb = bits.u(self.sequence.poc_lsb_bits) if self.sequence.poc_type == 0 else 0
                return _Picture(frame_num, poc_lsb, reference=unit[0] & 0x60 != 0)
        raise Unsupported("a packet without a slice")


@dataclass(frozen=True)
class HeldPacket:
    """One repeat of the last picture shown: its bytes (Annex B) and timestamps (frames)."""

    data: bytes
    pts: int
    dts: int


def held_packets(tail: StreamTail, count: int) -> list[HeldPacket]:
    """``count`` pictures after the stream's end, each a copy of the last picture shown.

    Each is a reference P picture, so the next one's default reference is the copy before it;
    the first names the picture it repeats explicitly (a reference list modification, §7.3.3.1),
    since with B pyramids the last reference decoded need not be the last picture shown."""
    sequence, shown = tail.sequence, tail.shown
    if shown is None or tail.last_reference is None:
        raise Unsupported("no picture to repeat")
    if not shown.reference:
        raise Unsupported("the last picture shown is not a reference")
    frame_wrap = 1 << sequence.frame_num_bits
    frame_num = tail.last_reference
    poc = shown.poc_lsb
    packets = []
    for index in range(1, count + 1):
        frame_num = (frame_num + 1) % frame_wrap
        poc = (poc + 2) % (1 << sequence.poc_lsb_bits) if sequence.poc_type == 0 else 0
        back = (frame_num - shown.frame_num) % frame_wrap if index == 1 else 0
        packets.append(
            HeldPacket(
                START + _skip_slice(sequence, frame_num, poc, back),
                pts=tail.shown_pts + index,
                dts=tail.last_dts + index,
            )
        )
    return packets


def _skip_slice(sequence: SequenceInfo, frame_num: int, poc_lsb: int, back: int) -> bytes:
    """A P slice of every macroblock skipped, a reference (nal_ref_idc 2), referring ``back``
    pictures before it (0: the default, the last reference decoded) (§7.3.3, §7.3.4)."""
    bits = _Bits()
    bits.ue(0)  # first_mb_in_slice
    bits.ue(5)  # slice_type: P, as every slice of the picture
    bits.ue(SKIP_PPS_ID)
    bits.u(sequence.frame_num_bits, frame_num)
    if sequence.poc_type == 0:
        bits.u(sequence.poc_lsb_bits, poc_lsb)
    bits.u(1, 0)  # num_ref_idx_active_override_flag
    if back:
        bits.u(1, 1)  # ref_pic_list_modification_flag_l0
        bits.ue(0)  # modification_of_pic_nums_idc: subtract from the current picture's number
        bits.ue(back - 1)  # abs_diff_pic_num_minus1
        bits.ue(3)  # end of the modifications
    else:
        bits.u(1, 0)
    bits.u(1, 0)  # adaptive_ref_pic_marking_mode_flag: the sliding window
    bits.ue(0)  # slice_qp_delta
    bits.ue(1)  # disable_deblocking_filter_idc: nothing to filter in a copy
    bits.ue(sequence.macroblocks)  # mb_skip_run: the whole picture
    return bytes([0x41]) + _escape(bits.rbsp())
