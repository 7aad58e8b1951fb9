from django.urls import include, path

from trainer import views

urlpatterns = [
    path("", views.home, name="home"),
    path("tables/", views.tables, name="tables"),
    path("tables/<slug:name>/", views.table_card, name="table_card"),
    path("house-rules/", include("trainer.web.house_rules.urls")),
]
