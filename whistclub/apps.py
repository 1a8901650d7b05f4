from django.apps import AppConfig


class WhistclubConfig(AppConfig):
    name = "whistclub"
    verbose_name = "whistclub"
