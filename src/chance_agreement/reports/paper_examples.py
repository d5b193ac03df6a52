"""The simulations of chance_agreement_sequence_annotation.txt (Tables 2-9), decoded in
SPEC_NOTES section 1, with the values the paper prints. ``1`` marks a token inside a segment."""

from __future__ import annotations

from dataclasses import dataclass

_SIM1_A = ("00011000111000111100", "00111000111100111110")
_SIM2_B = ("00000011111111100000", "00001111111111110000")
_SIM4_GOLD = "11100" * 5 + "1" * 16


@dataclass(frozen=True)
class Simulation:
    name: str
    annotator_1: str
    annotator_2: str
    observed_f1: float  # as printed in the paper
    chance_f1: float
    corrected_f1: float

    def tags(self, entity_type: str = "ENT") -> tuple[list[str], list[str]]:
        """The two annotations as IOB2 tag sequences (each run of 1s is one entity)."""
        return bits_to_tags(self.annotator_1, entity_type), bits_to_tags(self.annotator_2, entity_type)


def bits_to_tags(bits: str, entity_type: str = "ENT") -> list[str]:
    """``"0110"`` -> ``["O", "B-ENT", "I-ENT", "O"]``."""
    tags = []
    for i, bit in enumerate(bits):
        if bit == "0":
            tags.append("O")
        else:
            tags.append(("I-" if i and bits[i - 1] == "1" else "B-") + entity_type)
    return tags


SIMULATIONS = (
    Simulation("Sim1 A", *_SIM1_A, 0.8571, 0.5335, 0.6938),
    Simulation("Sim1 B", _SIM1_A[0] + "0" * 10, _SIM1_A[1] + "0" * 10, 0.8571, 0.3544, 0.7787),
    Simulation("Sim2 A", *_SIM1_A, 0.8571, 0.5335, 0.6938),
    Simulation("Sim2 B", *_SIM2_B, 0.8571, 0.6455, 0.5970),
    Simulation("Sim3 A", "00000000011100000000", "00000000111100000000", 0.8571, 0.1830, 0.8251),
    Simulation("Sim3 B", *_SIM2_B, 0.8571, 0.6455, 0.5970),
    Simulation("Sim4 annotator 1 vs gold", "11100" * 4 + "111" + "0" * 18, _SIM4_GOLD, 0.6522, 0.5013, 0.3026),
    Simulation("Sim4 annotator 2 vs gold", "0" * 25 + "1" * 16, _SIM4_GOLD, 0.6808, 0.5437, 0.3005),
)


__all__ = ["SIMULATIONS", "Simulation", "bits_to_tags"]
