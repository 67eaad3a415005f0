from django.urls import path

from games import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("tables/new/", views.create_table, name="create_table"),
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("join/<str:code>/", views.invite, name="invite"),
]
