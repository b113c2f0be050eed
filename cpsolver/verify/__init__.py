"""The checkers: spring plans, proofs, certificates, strategy proofs, DRUP refutations, schemas.

A checker shares no code with the solvers: it imports the rules core and the
reading layer (:mod:`cpsolver.io`) only, so a bug in a solver cannot hide in the
check of its answer. The solvers may call the checkers, never the other way round.
"""

from cpsolver.verify.spring import check_certificate, check_plan, check_proof, check_split
from cpsolver.verify.strategy import check_strategy

__all__ = ["check_certificate", "check_plan", "check_proof", "check_split", "check_strategy"]
