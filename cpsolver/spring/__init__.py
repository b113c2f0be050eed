"""The spring question: can the landlord play out every card unanswered?

Two engines (:mod:`cpsolver.spring.search` and :mod:`cpsolver.spring.cpsat`),
both by name (:mod:`cpsolver.spring.engines`), what they return
(:mod:`cpsolver.spring.result`), proofs of a spring and certificates of none.
OR-Tools and python-sat load only when a model or a certificate is made.
"""

from cpsolver.spring.result import Objective, SpringResult, Step, Verdict

__all__ = ["Objective", "SpringResult", "Step", "Verdict"]
