"""The strategy lab (``/lab``): studies of the bots' strategies in the browser.

``routes`` holds the pages and the progress stream, ``form`` reads the form,
``runner`` runs the studies in the server's process pool with the lab's
limits, ``plots`` draws the results, ``view`` picks what a study's page shows.
"""

from ligretto.web.lab.routes import router
from ligretto.web.lab.runner import LabLimits, StudyLab

__all__ = ["LabLimits", "StudyLab", "router"]
