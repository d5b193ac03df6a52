"""The Hub Space of the noise metric: paste or upload annotations and see the scores (Gradio).

The page and the scoring live in chance_agreement.ecosystem.space_app; importing this file starts
nothing, `python app.py` (what a Space runs) serves the page.
"""

import gradio as gr

from chance_agreement.ecosystem.space_app import build_demo, launch

demo = build_demo(gr, "noise")

if __name__ == "__main__":
    launch(gr, demo)
