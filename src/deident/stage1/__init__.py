"""Stage 1 after the detectors (BoB's sensitive stage): steps that correct the candidates before stage 2.

:mod:`deident.stage1.veto` drops candidates that are drug names, eponyms or clinical abbreviations;
:mod:`deident.stage1.place_labels` gives whole state and country names their label;
:mod:`deident.stage1.name_edges` trims titles and kinship words off name edges. The detectors
themselves live in :mod:`deident.detect`; :mod:`deident.pipelines` assembles them.
"""
