"""Auditing papers' claims against their own laws and theorems.

A claims file under ``paper_checks/`` states a paper's laws and claims once
(:mod:`pysym.audit.schema`); the engine (:mod:`pysym.audit.engine`) gives
each claim a verdict with evidence; :mod:`pysym.audit.run` audits many files
and collects bad input; :mod:`pysym.audit.report` writes the reports.

>>> from pysym.audit import VERDICTS
>>> VERDICTS
('holds', 'fails', 'conditional', 'inconclusive')
"""

from pysym.audit.engine import Verdict, evaluate
from pysym.audit.run import AuditResult, audit, default_files, exit_code
from pysym.audit.schema import VERDICTS, AuditInputError, ClaimsFile, load_claims_file

__all__ = [
    "VERDICTS",
    "AuditInputError",
    "AuditResult",
    "ClaimsFile",
    "Verdict",
    "audit",
    "default_files",
    "evaluate",
    "exit_code",
    "load_claims_file",
]
