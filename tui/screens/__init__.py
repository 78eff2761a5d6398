"""The screens: trace browser, promote screen, and the modal dialogs."""
